"""Opens a dataset version by ref (docs/python.md "Opening a version", "The client"): from a
registry with open_version() and TimeFReader(version), from a directory with
open_local_version(), and loaded whole through a timef.Client.

    python open_version.py REGISTRY REF    (REGISTRY: a registry root or its http(s):// URL;
                                            REF: org/name for the latest version, or org/name@x.y.z)
"""

import sys

import timef


def main(registry_root, ref):
    registry = timef.open_registry(registry_root)
    # Opening checks the manifest, every file's size and the payload sources' pins; it hashes
    # nothing and reads no values.
    version = registry.open_version(ref)
    print(f"version {version.ref}")
    for source, where in version.payload_sources.items():
        print(f"payload source {source}")
    with timef.TimeFReader(version) as reader:
        print(f"{len(reader.record_ids())} records, {len(reader.signal_ids())} signals")

    if not version.remote:
        # The same version straight from its directory.
        local = timef.open_local_version(version.location)
        print(f"local version {local.ref}")

    # A client resolves refs against its registries and loads a dataset whole.
    client = timef.Client(registries=[registry_root])
    dataset = client.load(ref)
    values = sum(s.to_numpy().size for r in dataset.records for s in r.signals if s.has_values)
    print(f"loaded {len(dataset.records)} records, {values} values")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
