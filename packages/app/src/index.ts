/** @workplan/app: the composition root. */
export {};
