import { ObjectStore } from './object-store.js';
import type { StoreNetwork } from './store-connection.js';
import { storeSettingsOf } from './store-settings.js';

/**
 * The job's object store, made the first time an `s3://` address needs it, from the environment
 * as the AWS tools read it (docs/network.md, "Object storage"), unless a library caller gave one.
 * A job that names no object never makes a client, nor asks the SDK's credential chain anything.
 */
export class StoreOnDemand {
  private made: ObjectStore | undefined;

  constructor(
    private readonly given: ObjectStore | undefined,
    private readonly network: StoreNetwork = {},
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  get(): ObjectStore {
    this.made ??= this.given ?? new ObjectStore(storeSettingsOf(this.env), { network: this.network });
    return this.made;
  }

  /** Closes a store made here; one the caller gave is the caller's to close. */
  close(): void {
    if (this.made !== undefined && this.made !== this.given) this.made.close();
    this.made = undefined;
  }
}
