#!/usr/bin/python3
"""Publishes a release to S3 and reads it back (docs/remote.md "S3" and "Push"): push, list the
registry, open its latest version by ref, read a series, pull a local copy.

    AWS_ENDPOINT_URL=http://127.0.0.1:9000 AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... \\
    PYTHONPATH=build/python /usr/bin/python3 examples/python/s3_roundtrip.py \\
        RELEASE_DIR s3://bucket/registry COPY_DIR
"""

import sys

import timef


def main(release, root, copy_dir):
    with timef.TimeFReader.open(release) as local:
        dataset_id = local.manifest["dataset_id"]
        version = local.manifest["metadata"]["dataset_version"]
    url = f"{root}/{dataset_id}/{version}"
    pushed = timef.push(release, url, threads=4)
    print(f"pushed {pushed['url']}: {pushed['files']} files and manifest.json")
    for entry in timef.ls_remote(root):
        print(f"listed {entry['dataset_id']}@{entry['version']}")
    # The ref's latest version, found by listing the registry.
    with timef.open(dataset_id, root=root) as reader:
        record = next(reader.iter_records())
        values = record.signals[0].to_numpy()
        print(f"record {record.id}: {len(record.signals)} signals, first has {values.shape[0]} "
              f"values")
        reader.verify()
    pulled = timef.pull(url, copy_dir)
    print(f"pulled {pulled['files_downloaded']} files into {pulled['release_dir']}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
