import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What a closing server still waits for. */
export interface OpenWork {
  /** Requests whose answer has not been sent (their body may still be arriving). */
  requests: number;
  /** Open connections, idle or not, including those whose request headers are not complete. */
  connections: number;
  /** Connections that sent part of a request's headers (no answer can be under way). */
  halfSent: number;
}

interface SocketState {
  /** Requests of this connection not answered yet. */
  active: number;
  /** socket.bytesRead when its last request was answered (or 0). */
  readAtAnswer: number;
  closed: boolean;
  /** Listens to 'close' of each of the socket's answers (one function per socket, not per request). */
  answered: () => void;
}

/**
 * Follows an http.Server's connections and unanswered requests, and closes it in bounded
 * time. Node stops enforcing headersTimeout and requestTimeout once `server.close()` is
 * called, so a client holding half-sent headers or a half-sent body would keep a plain
 * close waiting forever; `close(timeoutMs)` ends every connection when the time is up.
 */
export class ConnectionTracker {
  readonly #server: Server;
  readonly #sockets = new Map<Socket, SocketState>();
  #requests = 0;
  #closing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(server: Server) {
    this.#server = server;
    server.on('connection', (socket: Socket) => {
      const state: SocketState = {
        active: 0,
        readAtAnswer: 0,
        closed: false,
        answered: () => {
          if (state.closed) return;
          this.#requests--;
          state.active--;
          state.readAtAnswer = socket.bytesRead;
          // While closing, a connection whose answer went out is idle now: end it.
          if (this.#closing) setImmediate(() => this.#server.closeIdleConnections());
        },
      };
      this.#sockets.set(socket, state);
      socket.once('close', () => {
        // Requests still waiting on a closed connection (pipelined ones never get an
        // answer, nor a 'close' of their own) are over too.
        this.#requests -= state.active;
        state.active = 0;
        state.closed = true;
        this.#sockets.delete(socket);
      });
    });
    // Prepended, so it runs before the app writes anything.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const state = this.#sockets.get(req.socket);
      if (!state || state.closed) return;
      this.#requests++;
      state.active++;
      if (this.#closing) res.setHeader('Connection', 'close');
      // An answer closes once; it is dropped after, so its listener needs no removal.
      res.on('close', state.answered);
    });
  }

  get open(): OpenWork {
    let halfSent = 0;
    for (const [socket, state] of this.#sockets) if (state.active === 0 && socket.bytesRead > state.readAtAnswer) halfSent++;
    return { requests: this.#requests, connections: this.#sockets.size, halfSent };
  }

  /**
   * Stops accepting connections and closes idle ones at once; requests in flight may finish
   * (their connections close after the answer) for `timeoutMs`, then every connection is
   * closed. `onTimeout` is called, with what was still open, if the time ran out.
   * Resolves once the server has closed. Calling it again returns the same promise.
   */
  close(timeoutMs: number, onTimeout?: (left: OpenWork) => void): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      this.#server.close(() => {
        clearTimeout(this.#timer);
        resolve();
      });
      this.#server.closeIdleConnections();
      this.#timer = setTimeout(() => {
        const left = this.open;
        if (left.connections > 0) onTimeout?.(left);
        this.closeAll();
      }, timeoutMs);
      this.#timer.unref();
    });
    return this.#closing;
  }

  /** Ends every connection now, answered or not (a second signal, or the timeout). */
  closeAll(): void {
    this.#server.closeAllConnections();
    // Connections Node does not count as HTTP ones (none today) are ended too.
    for (const socket of this.#sockets.keys()) socket.destroy();
  }
}
