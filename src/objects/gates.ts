// The input gate of one object, with the platform's rule: an event is delivered only while the
// object runs no JavaScript and awaits no storage operation, and never while
// blockConcurrencyWhile() runs. So a request awaiting a timer or a fetch() lets the next request
// or the alarm in (as on the platform), while `await get(); put()` stays atomic.
//
// Storage operations here complete within the microtasks of the turn that issued them. So an
// event arriving while others are in progress is delivered from a setImmediate callback: Node
// drains the microtasks before each one, so by then every storage result has reached the code
// awaiting it. The events waiting get one callback each, queued together, so they run one after
// the other in the same turn, before the commit their writes scheduled (one commit for all, as
// when they ran one at a time). An event arriving at an idle object (nothing in progress, nothing
// queued) starts at once, which is the common case and costs nothing.

export class InputGate {
  // Events started and not yet settled (their output gate included).
  private running = 0
  // blockConcurrencyWhile() callbacks in progress.
  private locks = 0
  private readonly waiting: Array<() => void> = []
  // setImmediate callbacks queued and not yet run (each delivers one waiting event).
  private pending = 0
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
    if (this.pending > 0 || this.locks > 0 || this.waiting.length === 0) return
    this.pending = this.waiting.length
    for (let i = 0; i < this.pending; i++) setImmediate(this.deliverOne)
  }

  private readonly deliverOne = (): void => {
    this.pending--
    // An event delivered before this one may have taken the gate (blockConcurrencyWhile): its
    // release schedules the rest.
    if (this.locks === 0) this.waiting.shift()?.()
    if (this.pending === 0) this.schedule()
  }
}
