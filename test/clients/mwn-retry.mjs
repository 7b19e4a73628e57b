// mwn meets a wiki's bad day: one `list=logevents` read (mwn sends maxlag=5 with every request),
// retried as mwn retries (maxlag after Retry-After, 5xx and 429 after retryPause), at most
// MAX_RETRIES times. Prints one JSON line: {"ok":true,"events":N} or {"ok":false,"error":CODE}.
//   API_URL=http://127.0.0.1:8088/wiki/api.php MAX_RETRIES=1 node mwn-retry.mjs
import { Mwn } from 'mwn';

const bot = new Mwn({ apiUrl: process.env.API_URL, maxRetries: Number(process.env.MAX_RETRIES ?? 1), retryPause: 200, silent: true });
try {
  const r = await bot.request({ action: 'query', list: 'logevents', lelimit: 1 });
  console.log(JSON.stringify({ ok: true, events: r.query.logevents.length }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: e.code ?? e.response?.status ?? String(e) }));
}
