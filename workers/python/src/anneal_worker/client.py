"""Anneal's worker API over HTTP (docs/workers.md) with nothing but the standard library: JSON calls,
downloads, and chunked resumable uploads. Network errors and 5xx answers are retried with backoff;
a 409 on a lease's route means the lease is gone (another worker holds the job, it ended, or the key
was revoked) and raises LeaseLost: the caller stops at once and writes nothing more."""
import hashlib
import json
import time
import urllib.error
import urllib.request
from typing import Optional

RETRIES = 5


class LeaseLost(Exception):
    pass


class Refused(Exception):
    """A 4xx answer other than a lost lease: what the server said, for the log."""

    def __init__(self, status: int, body: str):
        super().__init__(f"HTTP {status}: {body[:500]}")
        self.status, self.body = status, body


class Client:
    def __init__(self, server: str, key: str, timeout: float = 120):
        self.server, self.key, self.timeout = server.rstrip("/"), key, timeout

    def call(self, method: str, path: str, body: Optional[dict] = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        answer = self._send(method, path, data, headers)
        return json.loads(answer) if answer else {}

    def download(self, path: str) -> bytes:
        return self._send("GET", path, None, {})

    def upload(self, token: str, purpose: str, data: bytes) -> str:
        """Uploads ``data`` in chunks (resuming from the server's contiguous prefix after a failure)
        and returns the upload's id."""
        base = f"/v1/workers/leases/{token}/uploads"
        started = self.call("POST", base, {"purpose": purpose, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
        upload_id, chunk = started["upload_id"], int(started["chunk_bytes"])
        at, failures = 0, 0
        while at < len(data):
            end = min(at + chunk, len(data))
            try:
                self._send("PUT", f"{base}/{upload_id}", data[at:end],
                           {"Content-Type": "application/octet-stream", "Content-Range": f"bytes {at}-{end - 1}/{len(data)}"}, retries=1)
                at = end
            except (urllib.error.URLError, OSError, Refused) as e:
                if isinstance(e, Refused) and e.status < 500:
                    raise
                failures += 1
                if failures > RETRIES:
                    raise
                time.sleep(2**failures)
                at = int(self.call("GET", f"{base}/{upload_id}")["received"])
        return upload_id

    def _send(self, method: str, path: str, data: Optional[bytes], headers: dict, retries: int = RETRIES) -> bytes:
        url = path if path.startswith("http") else f"{self.server}{path}"
        for attempt in range(retries):
            request = urllib.request.Request(url, data=data, method=method,
                                             headers={**headers, "Authorization": f"Bearer {self.key}"})
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return response.read()
            except urllib.error.HTTPError as e:
                status, body = e.code, e.read().decode(errors="replace")
                if status == 409 and "/leases/" in path:
                    raise LeaseLost(body) from None
                if status < 500 or attempt == retries - 1:
                    raise Refused(status, body) from None
            except (urllib.error.URLError, OSError):
                if attempt == retries - 1:
                    raise
            time.sleep(min(2**attempt, 30))
        raise AssertionError("unreachable")

