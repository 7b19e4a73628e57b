#!/usr/bin/python3
"""mwclient meets a wiki's bad day: one list=logevents read with maxlag=3 (mwclient 0.10.1 adds
maxlag to index.php calls only: a bot that wants it on the API sends it itself), retried as
mwclient retries (an answer with X-Database-Lag after Retry-After, a 5xx at once, then longer),
at most MAX_RETRIES times. Prints one JSON line: {"ok": true, "events": N} or
{"ok": false, "error": WHAT}.

    API_URL=http://127.0.0.1:8088/wiki/api.php MAX_RETRIES=1 /usr/bin/python3 mwclient-retry.py
"""
import json
import os
from urllib.parse import urlsplit

import mwclient
import mwclient.errors
import requests

u = urlsplit(os.environ['API_URL'])
site = mwclient.Site(u.netloc, path=u.path[: -len('api.php')], scheme=u.scheme, do_init=False,
                     max_retries=int(os.environ.get('MAX_RETRIES', '1')), retry_timeout=1)
try:
    r = site.get('query', list='logevents', lelimit=1, maxlag=3)
    print(json.dumps({'ok': True, 'events': len(r['query']['logevents'])}))
except mwclient.errors.MaximumRetriesExceeded:
    print(json.dumps({'ok': False, 'error': 'MaximumRetriesExceeded'}))
except mwclient.errors.APIError as e:
    print(json.dumps({'ok': False, 'error': e.code}))
except requests.exceptions.HTTPError as e:
    print(json.dumps({'ok': False, 'error': e.response.status_code}))
