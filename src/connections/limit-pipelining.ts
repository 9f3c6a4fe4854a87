import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface PipeliningLimits {
  /** Requests of one connection handled at the same time; later ones wait their turn. */
  active: number;
  /** Requests of one connection waiting their turn; one more closes the connection. */
  queued: number;
}

/**
 * HTTP/1.1 lets a client send many requests on one connection before reading any answer.
 * Node parses a whole received chunk at once (up to 64 KiB, a few thousand small requests)
 * and hands every request to the app, whose answers then wait in memory for a client that
 * may never read them. These limits bound that: a connection has at most `active` requests
 * being answered (their answers are what costs memory); the next ones wait, unanswered and
 * cheap; past `queued` waiting the connection is closed. Ordinary clients (one request at a
 * time per connection) never notice.
 */
export const DEFAULT_PIPELINING_LIMITS: PipeliningLimits = { active: 8, queued: 128 };

interface SocketQueue {
  active: number;
  waiting: Array<[IncomingMessage, ServerResponse]>;
  /** Listens to 'close' of each of the socket's answers (one function per socket, not per request). */
  done: () => void;
}

/**
 * Puts the limits in front of the server's request listeners (the app). Call it once the
 * listeners are registered; it replaces them with one listener that calls them in turn.
 */
export function limitPipelining(server: Server, limits: PipeliningLimits = DEFAULT_PIPELINING_LIMITS): void {
  const listeners = server.listeners('request') as RequestListener[];
  for (const listener of listeners) server.off('request', listener);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    for (const listener of listeners) listener(req, res);
  };
  const queues = new WeakMap<Socket, SocketQueue>();

  const start = (queue: SocketQueue, req: IncomingMessage, res: ServerResponse) => {
    queue.active++;
    // An answer closes once; it is dropped after, so its listener needs no removal.
    res.on('close', queue.done);
    handle(req, res);
  };

  const queueOf = (socket: Socket): SocketQueue => {
    const queue: SocketQueue = {
      active: 0,
      waiting: [],
      done: () => {
        queue.active--;
        if (socket.destroyed) {
          queue.waiting.length = 0;
          return;
        }
        const next = queue.waiting.shift();
        if (next) start(queue, ...next);
      },
    };
    queues.set(socket, queue);
    return queue;
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const queue = queues.get(socket) ?? queueOf(socket);
    if (queue.active < limits.active) {
      start(queue, req, res);
      return;
    }
    if (socket.destroyed) return;
    if (queue.waiting.length >= limits.queued) {
      // A client this far ahead of its answers is not reading them: stop buffering for it.
      queue.waiting.length = 0;
      socket.destroy();
      return;
    }
    queue.waiting.push([req, res]);
  });
}
