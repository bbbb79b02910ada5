"""Job bundles' files as docs/workers.md writes them down: job.tar read (job.json, start-adapter.zip),
result.tar written (result.json, adapter.zip). Needs torch only; a whole bundle trained through
transformers + PEFT is in test_transformers_peft.py."""
import io
import json
import os
import tarfile
import tempfile
import unittest

from anneal_worker.bundle import BUNDLE_VERSION, read_bundle, write_result


def tar_of(path: str, files: dict) -> None:
    with tarfile.open(path, "w") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


class BundleFilesTest(unittest.TestCase):
    def test_job_tar_and_result_tar(self):
        with tempfile.TemporaryDirectory() as folder:
            job = {"version": BUNDLE_VERSION, "lease": {"token": "t", "job_id": "j"}, "inputs": {"start": {"adapter": "start-adapter.zip"}}}
            job_tar = os.path.join(folder, "job.tar")
            tar_of(job_tar, {"job.json": json.dumps(job).encode(), "start-adapter.zip": b"PK-bytes"})
            self.assertEqual(read_bundle(job_tar), (job, b"PK-bytes"))

            result_tar = os.path.join(folder, "result.tar")
            result = {"version": BUNDLE_VERSION, "token": "t", "job_id": "j", "events": [{"type": "gradient_step", "data": {"step": 1, "loss": 2.0}}], "metrics": {}}
            write_result(result_tar, result, b"adapter-bytes")
            with tarfile.open(result_tar) as tar:
                self.assertEqual(tar.getnames(), ["result.json", "adapter.zip"])
                self.assertEqual(json.load(tar.extractfile("result.json")), result)
                self.assertEqual(tar.extractfile("adapter.zip").read(), b"adapter-bytes")

    def test_other_tars_are_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "job.tar")
            tar_of(path, {"readme.txt": b"hello"})
            with self.assertRaisesRegex(ValueError, "not a job bundle"):
                read_bundle(path)
            tar_of(path, {"job.json": json.dumps({"version": 2}).encode()})
            with self.assertRaisesRegex(ValueError, "version 2"):
                read_bundle(path)


if __name__ == "__main__":
    unittest.main()
