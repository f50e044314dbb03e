import { EventEmitter } from 'node:events';

export interface BusEvent {
  name: string;
  payload: Record<string, unknown>;
}

/**
 * In-process events. LISTEN/NOTIFY does not cross PGlite socket connections, so in embedded mode this is the only
 * channel; with PostgreSQL, workers that must hear other processes also poll the event_queue table.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  publish(event: BusEvent): void {
    this.emitter.emit(event.name, event);
    this.emitter.emit('*', event);
  }

  subscribe(name: string, handler: (event: BusEvent) => void): () => void {
    this.emitter.on(name, handler);
    return () => this.emitter.off(name, handler);
  }
}
