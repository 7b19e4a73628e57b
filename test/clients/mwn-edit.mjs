// mwn (devDependencies) as a bot that logs in (Mwn.init, as mwn's README shows it), reads who it
// is and one page's text, and saves an edit. Prints one JSON document on stdout.
//
// Env: API_URL, LOGIN_USER, LOGIN_PASSWORD (a bot password that may edit), EDIT_TITLE, EDIT_TEXT.
import { Mwn } from 'mwn';

const apiUrl = process.env.API_URL;
if (!apiUrl) throw new Error('set API_URL to an api.php URL');
const bot = await Mwn.init({
  apiUrl,
  username: process.env.LOGIN_USER,
  password: process.env.LOGIN_PASSWORD,
  userAgent: 'wikitape-balancer-check/0.1 (mwn)',
  silent: true,
  maxRetries: 0,
});
const me = await bot.userinfo();
let edit;
try {
  const saved = await bot.save(process.env.EDIT_TITLE, process.env.EDIT_TEXT, 'wikitape balancer check');
  // What an edit answers that a recording cannot know (the revision ids, the time) is left out.
  const { newrevid: _n, oldrevid: _o, newtimestamp: _t, ...rest } = saved;
  edit = rest;
} catch (e) {
  edit = { error: e.code ?? String(e) };
}
console.log(JSON.stringify({ user: me.name, edit }));
