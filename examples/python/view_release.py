"""Serve a release to the browser from Python and ask its JSON API for an overview.

Usage: view_release.py RELEASE_DIR [--serve]
Prints the URL, the dataset and the min/max envelope of the first signal in 10 buckets; with
--serve keeps serving until Ctrl-C (open the URL in a browser).
"""

import json
import sys
import urllib.request

import timef


def main():
    release = sys.argv[1]
    with timef.view(release, port=0) as server:
        print(server.url)
        card = json.load(urllib.request.urlopen(server.url + "api/card"))
        print(f"{card['dataset_id']}@{card['dataset_version']}: {card['card']['name']}")
        with timef.TimeFReader.open(release) as reader:
            signal = reader.signal_ids()[0]
        overview = json.load(urllib.request.urlopen(
            f"{server.url}api/signals/{signal}/range?buckets=10"))
        print(f"signal {signal}: {len(overview['min'])} buckets of {overview['step']} steps, "
              f"min {overview['min'][0]} max {overview['max'][0]} in the first")
        if "--serve" in sys.argv[2:]:
            try:
                while True:
                    input()
            except (KeyboardInterrupt, EOFError):
                pass


if __name__ == "__main__":
    main()
