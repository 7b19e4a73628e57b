/**
 * Time zone names PHP's `DateTime::createFromFormat('O')` accepts where wikimedia/timestamp's
 * RFC 2822 and RFC 850 patterns allow a name (`[A-Z]{1,5}`), found by trying every such string
 * on PHP 8.2 (timelib). Abbreviations have a fixed offset (seconds east of UTC, daylight saving
 * included); a few names are tz database identifiers whose offset depends on the date.
 */
const FIXED =
  'A:3600 B:7200 C:10800 D:14400 E:18000 F:21600 G:25200 H:28800 I:32400 K:36000 L:39600 M:43200 N:-3600 O:-7200 ' +
  'P:-10800 Q:-14400 R:-18000 S:-21600 T:-25200 U:-28800 V:-32400 W:-36000 X:-39600 Y:-43200 Z:0 ADT:-10800 ' +
  'AMT:-13840 APT:-10800 AST:-14400 AWT:-10800 BDT:-36000 BMT:-14309 BST:3600 CAT:7200 CDT:-18000 CET:3600 ' +
  'CMT:-15408 CPT:-18000 CST:-21600 CWT:-18000 DMT:-1521 EAT:10800 EDT:-14400 EET:7200 EMT:-26248 EPT:-14400 ' +
  'EST:-18000 EWT:-14400 FMT:-4056 GDT:39600 GMT:0 GST:36000 HDT:-34200 HKT:28800 HMT:-19776 HPT:-34200 ' +
  'HST:-36000 HWT:-34200 IDT:10800 IMT:25025 IST:7200 JDT:36000 JMT:8440 JST:32400 KDT:36000 KMT:5736 KST:30600 ' +
  'LST:9394 MDT:-21600 MET:3600 MMT:9017 MPT:-21600 MSD:14400 MSK:10800 MST:-25200 MWT:-21600 NDT:-9052 NPT:-9000 ' +
  'NST:-12600 NWT:-9000 PDT:-25200 PKT:18000 PMT:-13236 PPT:-25200 PST:-28800 PWT:-25200 QMT:-18840 RMT:5794 ' +
  'SMT:-13884 SST:-39600 TMT:12344 UCT:0 WAT:3600 WET:0 WIB:25200 WIT:32400 WMT:5040 YDT:-28800 YPT:-28800 ' +
  'YST:-32400 YWT:-28800 ACDT:37800 ACST:34200 ADDT:-7200 AEDT:39600 AEST:36000 AHDT:-32400 AHST:-36000 ' +
  'AKDT:-28800 AKST:-32400 AWDT:32400 AWST:28800 BDST:7200 CAST:34200 CDDT:-14400 CEMT:10800 CEST:7200 CHST:36000 ' +
  'EDDT:-10800 EEST:10800 FFMT:-14660 HKST:32400 IDDT:14400 MDDT:-18000 MDST:16279 MEST:7200 NDDT:-5400 ' +
  'NZDT:46800 NZMT:41400 NZST:43200 PDDT:-21600 PKST:21600 PLMT:25590 PPMT:-17340 SAST:7200 SDMT:-16800 ' +
  'SJMT:-20173 TBMT:10751 WAST:7200 WEMT:7200 WEST:3600 WITA:28800 YDDT:-25200';

const IDENTIFIERS: Record<string, string> = {
  GB: 'Europe/London', NZ: 'Pacific/Auckland', PRC: 'Asia/Shanghai', ROC: 'Asia/Taipei', ROK: 'Asia/Seoul', UTC: 'UTC',
  CUBA: 'America/Havana', EIRE: 'Europe/Dublin', IRAN: 'Asia/Tehran', ZULU: 'UTC', EGYPT: 'Africa/Cairo',
  JAPAN: 'Asia/Tokyo', LIBYA: 'Africa/Tripoli',
};

const fixed = new Map(FIXED.split(' ').map((e) => [e.slice(0, e.indexOf(':')), Number(e.slice(e.indexOf(':') + 1))] as const));

/** Offset (ms east of UTC) of an IANA zone at a UTC instant. */
function zoneOffset(zone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(utcMs);
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const year = parts.find((p) => p.type === 'era')?.value === 'BC' ? 1 - get('year') : get('year');
  const d = new Date(0);
  d.setUTCFullYear(year, get('month') - 1, get('day'));
  d.setUTCHours(get('hour'), get('minute'), get('second'));
  return d.getTime() - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/**
 * The UTC instant of a wall-clock time (as if it were UTC, in ms) in the named zone, or null
 * for a name PHP does not accept.
 */
export function zoneWallToUtc(name: string, wallMs: number): number | null {
  const offset = fixed.get(name);
  if (offset !== undefined) return wallMs - offset * 1000;
  const zone = IDENTIFIERS[name];
  if (zone === undefined) return null;
  const guess = wallMs - zoneOffset(zone, wallMs);
  return wallMs - zoneOffset(zone, guess);
}
