/**
 * V8 settings of a wikitape process, applied when the CLI starts (imported before everything
 * else, so no code has run yet; `--workers` forks run the CLI too).
 *
 * Allocation-site pretenuring off. V8 allocates the objects of an allocation site (an object or
 * array literal) straight into the old generation once most of those it sees at a scavenge are
 * still alive. An answer's objects (its rows, their params, the formatversion=1 copies) live
 * exactly as long as the answer is worked out and printed; a scavenge, set off by the printing's
 * allocations, always falls inside an answer and finds that answer's rows alive, so V8 judged
 * every row literal long-lived: every computed answer's rows went to the old generation, and were
 * collected by full collections, each ~1 s under load, marked and swept on V8's helper threads.
 * One process hid that cost on the idle core; `--workers 2` has none. Turned off, two workers
 * answered 25–33 % more computed answers a second, in turn with the build before (decision 0019,
 * "What one process hid"; bench/RESULTS.md).
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
