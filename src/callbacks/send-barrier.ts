/**
 * Sends requests "at the same moment": each request of a group writes its head and all of its
 * body but the last byte, arrives here, and writes that last byte only when every request of the
 * group has arrived. A receiver that reads the whole body before acting therefore gets all of
 * them on the wire before it can answer any (the callback fuzzer's groups, the
 * `overlapping-callbacks` scenario). A request that fails before arriving counts as arrived, so
 * the others never wait for it.
 */
export class SendBarrier {
  #left: number;
  #release: () => void = () => undefined;
  /** Resolves once every party has arrived. */
  readonly released: Promise<void>;

  constructor(parties: number) {
    this.#left = parties;
    this.released = new Promise<void>((resolve) => {
      this.#release = resolve;
    });
    if (parties <= 0) this.#release();
  }

  /** One party is ready; resolves when all are. */
  arrive(): Promise<void> {
    this.#left--;
    if (this.#left <= 0) this.#release();
    return this.released;
  }
}
