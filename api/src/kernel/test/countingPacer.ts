import { Pacer } from '../pace.js';

/**
 * A pacer whose slice is always used up, counting the turns it hands back; and a count of the
 * turns the event loop made meanwhile (`turns()`), so a test sees that other work ran during it.
 */
export class CountingPacer extends Pacer {
  pauses = 0;
  private ticks = 0;
  private readonly ticking = setInterval(() => (this.ticks += 1), 0);

  constructor() {
    super(0);
  }

  override async pause(): Promise<void> {
    this.pauses += 1;
    await super.pause();
  }

  /** Stops counting; the timer's turns seen so far. */
  turns(): number {
    clearInterval(this.ticking);
    return this.ticks;
  }
}
