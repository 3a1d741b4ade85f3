// The input gate of one object, with the platform's rule: an event is delivered only while the
// object runs no JavaScript and awaits no storage operation, and never while
// blockConcurrencyWhile() runs. So a request awaiting a timer or a fetch() lets the next request
// or the alarm in (as on the platform), while `await get(); put()` stays atomic.
//
// Storage operations here complete within the microtasks of the turn that issued them. So an
// event arriving while others are in progress is delivered at the next turn of the event loop
// (setImmediate), one per turn: by then every storage result has reached the code awaiting it.
// An event arriving at an idle object (nothing in progress, nothing queued) starts at once, which
// is the common case and costs nothing.

export class InputGate {
  // Events started and not yet settled (their output gate included).
  private running = 0
  // blockConcurrencyWhile() callbacks in progress.
  private locks = 0
  private readonly waiting: Array<() => void> = []
  private scheduled = false
  private idle: Array<() => void> = []

  /** Runs `event` when the gate lets it in; its promise settles with the event. */
  admit<T>(event: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++
        event()
          .then(resolve, reject)
          .finally(() => {
            this.running--
            this.settled()
          })
      }
      if (this.running === 0 && this.locks === 0 && this.waiting.length === 0) start()
      else {
        this.waiting.push(start)
        this.schedule()
      }
    })
  }

  /** Holds every new event until the returned release is called (blockConcurrencyWhile). */
  lock(): () => void {
    this.locks++
    let released = false
    return () => {
      if (released) return
      released = true
      this.locks--
      this.schedule()
      this.settled()
    }
  }

  /** Resolves once no event is in progress or waiting (a reload retires the instance then). */
  whenIdle(): Promise<void> {
    if (this.isIdle) return Promise.resolve()
    return new Promise((resolve) => this.idle.push(resolve))
  }

  private get isIdle(): boolean {
    return this.running === 0 && this.locks === 0 && this.waiting.length === 0
  }

  private settled(): void {
    if (this.idle.length === 0 || !this.isIdle) return
    const done = this.idle
    this.idle = []
    for (const f of done) f()
  }

  private schedule(): void {
    if (this.scheduled || this.locks > 0 || this.waiting.length === 0) return
    this.scheduled = true
    setImmediate(this.deliverNext)
  }

  private readonly deliverNext = (): void => {
    this.scheduled = false
    if (this.locks > 0) return
    this.waiting.shift()?.()
    this.schedule()
  }
}
