import type { Command } from '../history/commands.ts';
import type { EventType, HistoryEvent } from '../history/events.ts';
import { COMMAND_MATCHERS } from './features/index.ts';

type AnyAttrs = Record<string, unknown>;

/** Undefined when `event` records `command`; otherwise what differs (the feature's matcher decides). */
export function commandMismatch(command: Command, event: HistoryEvent): string | undefined {
  const matcher = COMMAND_MATCHERS[command.commandType];
  if (!matcher.events.includes(event.eventType)) return 'the event type differs';
  const c = command.attributes as AnyAttrs;
  const e = event.attributes as AnyAttrs;
  const differing = matcher.keys.filter((k) => c[k] !== e[k]);
  return differing.length ? `${differing.join(' and ')} differ` : undefined;
}

function pick(attrs: AnyAttrs, keys: readonly string[]): string {
  const shown = keys.filter((k) => attrs[k] !== undefined).map((k) => `${k}: ${JSON.stringify(attrs[k])}`);
  return shown.length ? ` { ${shown.join(', ')} }` : '';
}

const EVENT_KEYS: Partial<Record<EventType, readonly string[]>> = Object.fromEntries(
  Object.values(COMMAND_MATCHERS).flatMap((m) => m.events.map((e) => [e, m.keys])),
);

/** `ScheduleActivityTask { activityId: "1", activityType: "charge" }` */
export function describeCommand(command: Command): string {
  return `${command.commandType}${pick(command.attributes as AnyAttrs, COMMAND_MATCHERS[command.commandType].keys)}`;
}

/** `event 5 TimerStarted { timerId: "1" }` */
export function describeEvent(event: HistoryEvent): string {
  return `event ${event.eventId} ${event.eventType}${pick(event.attributes as AnyAttrs, EVENT_KEYS[event.eventType] ?? [])}`;
}
