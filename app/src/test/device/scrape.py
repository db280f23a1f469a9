"""What the device scripts (exercise.py, soak.py) share: GET against the service and the reading of
a Prometheus text scrape. Standard library only."""
import re
import urllib.error
import urllib.request


def get(base, path):
    """(status, body) of GET base + path; an HTTP error's status and body too."""
    try:
        with urllib.request.urlopen(base + path, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def samples(text):
    """The samples of a Prometheus text scrape as (name, labels, value)."""
    out = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)', line)
        if m:
            labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(3) or ""))
            out.append((m.group(1), labels, float(m.group(4))))
    return out
