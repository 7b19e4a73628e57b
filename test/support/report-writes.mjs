// Preloaded into the recorder process by the crash test: after each cassette write has finished
// (lowdb's temp file renamed over the cassette), prints the keys that write held as one line
// `WRITTEN <json>` on stdout. Writes to a pipe are synchronous on Linux, so a line the recorder
// printed reaches the test even when the process is killed right after.
import { Low } from 'lowdb';

const write = Low.prototype.write;
Low.prototype.write = async function () {
  // lowdb serialises the document when write() is called (before its first await): these are
  // exactly the keys that go into the file.
  const keys = Array.isArray(this.data?.interactions) ? this.data.interactions.map((i) => i.key) : [];
  await write.call(this);
  process.stdout.write(`WRITTEN ${JSON.stringify(keys)}\n`);
};
