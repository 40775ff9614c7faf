// The help desk behind a small interface: the product's own help panel works in every deployment
// (no third-party script, no internet); a vendor's chat script plugs in by implementing the same
// four calls in place of `builtInHelpDesk`.

/** Who the help desk talks to: the signed token from /api/help-desk/token and what it shows. */
export interface HelpDeskIdentity {
  jwt: string;
  email: string;
  name: string;
  companyId: string;
}

export interface HelpDeskProvider {
  /** Starts the help desk for this person (their launcher appears). */
  boot(identity: HelpDeskIdentity): void;
  /** Stops it and forgets the person (sign out, viewing as someone, onboarding, flag off). */
  shutdown(): void;
  /** Closes the panel; the launcher stays. */
  hide(): void;
  /** Opens the panel. */
  show(): void;
}

export interface BuiltInHelpDeskSnapshot {
  identity: HelpDeskIdentity | null;
  open: boolean;
}

/** The product's own help panel: a store the panel component reads. */
export class BuiltInHelpDesk implements HelpDeskProvider {
  private snapshot: BuiltInHelpDeskSnapshot = { identity: null, open: false };
  private readonly listeners = new Set<() => void>();

  boot(identity: HelpDeskIdentity): void {
    this.set({ identity, open: false });
  }
  shutdown(): void {
    this.set({ identity: null, open: false });
  }
  hide(): void {
    if (this.snapshot.open) this.set({ ...this.snapshot, open: false });
  }
  show(): void {
    if (this.snapshot.identity && !this.snapshot.open) this.set({ ...this.snapshot, open: true });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = (): BuiltInHelpDeskSnapshot => this.snapshot;

  private set(next: BuiltInHelpDeskSnapshot): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

/** The provider this deployment uses. */
export const builtInHelpDesk = new BuiltInHelpDesk();
