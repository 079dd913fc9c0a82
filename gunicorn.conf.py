"""gunicorn settings for ``make serve`` and the tests (override with GUNICORN_CMD_ARGS)."""

import os

bind = os.environ.get("NARDY_REFEREE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("NARDY_REFEREE_WORKERS", "2"))
# A 10,000-game record takes tens of seconds to check in pure Python: do not kill it.
timeout = 300
# Build the app (and migrate the archive) once in the master, before the workers fork.
preload_app = True
graceful_timeout = 30
accesslog = "-"
# The access log records the request line only: never headers, so never a bearer token.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
