import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';

/** What node:http's `createServer` takes to make its requests and responses. */
export interface MessageClasses {
  readonly IncomingMessage: typeof IncomingMessage;
  readonly ServerResponse: typeof ServerResponse;
}

/**
 * The classes a server's requests and responses are made with, so that they are born with
 * the prototypes an Express app gives them. Express changes the prototype of every request
 * and response it handles (`Object.setPrototypeOf` in `app.handle`); V8 does each change in
 * its runtime, moving the object to a new hidden class, which showed in a find's profile
 * (docs/benchmarks/README.md). Made with those prototypes, the change finds them in place
 * and does nothing. Any other listener gets Node's own classes.
 */
export function messageClassesFor(app: RequestListener): MessageClasses {
  const { request, response } = app as Partial<Record<'request' | 'response', unknown>>;
  return {
    IncomingMessage: request instanceof IncomingMessage ? madeWith(IncomingMessage, request) : IncomingMessage,
    ServerResponse: response instanceof ServerResponse ? madeWith(ServerResponse, response as ServerResponse) : ServerResponse,
  };
}

/** A constructor that builds what `base` builds, with `prototype` as the prototype of each object. */
function madeWith<C extends new (...args: never[]) => object>(base: C, prototype: InstanceType<C>): C {
  function Made(...args: ConstructorParameters<C>): InstanceType<C> {
    return Reflect.construct(base, args, Made) as InstanceType<C>;
  }
  Made.prototype = prototype;
  return Made as unknown as C;
}
