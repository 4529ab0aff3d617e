/** @workplan/adapter-express: the Express 5 HTTP adapter of the workplan service. */
export {};
