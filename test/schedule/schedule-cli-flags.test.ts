import { test } from 'node:test';
import { MAX_DURATION_MS } from '../../src/common/max-duration.ts';
import { assertOneLine, collect } from '../cli/cli-helpers.ts';
import { BIN, spawnNode } from '../helpers/processes.ts';

/**
 * Regression: `steadfast schedule create --catchup-window -1s` said
 * `policies.catchupWindow must be >= 0`, naming the client option instead of the flag, and a
 * rule that is not the rule (a catchup window is at least 1s).
 */
test('a bad --catchup-window is refused naming the flag and the rule that holds, before anything is sent', async () => {
  // A documentation address (RFC 5737) that nothing answers and the CLI does not probe as it
  // probes loopback: the refusal must come before a request, or the command would wait on it.
  const create = (window: string) => collect(spawnNode([BIN, 'schedule', 'create', 's1', '--type', 't', '--task-queue', 'q', '--workflow-id', 'w',
    '--interval', '1h', '--catchup-window', window, '--address', 'http://192.0.2.1:1']));
  assertOneLine(await create('-1s'), 2, /^--catchup-window must be >= 1s \(1000 ms\), got "-1s"$/, '--catchup-window -1s');
  assertOneLine(await create('500ms'), 2, /^--catchup-window must be >= 1s \(1000 ms\), got "500ms"$/, '--catchup-window 500ms');
  assertOneLine(await create('73000d'), 2, new RegExp(`^--catchup-window must be at most 100 years \\(${MAX_DURATION_MS} ms\\), got "73000d"$`),
    '--catchup-window 73000d');
});
