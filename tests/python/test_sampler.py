"""timef.torch.Sampler: the global order rule, ranks, padding, resumption (also with another
number of ranks or DataLoader workers) and the locality of its shuffle."""

import multiprocessing

import numpy as np
import pytest
import timef
import torch
from torch.utils.data import DataLoader

from timef.torch import Sampler

SIZES = [0, 1, 2, 7, 10, 13, 64, 200]


def test_the_global_order_depends_only_on_seed_epoch_length_and_blocks():
    for n in SIZES:
        orders = {tuple(Sampler(range(n), seed=4, num_replicas=w, rank=0, block_size=8,
                                window=3).global_order(2)) for w in (1, 2, 5)}
        assert len(orders) == 1
        (order,) = orders
        assert sorted(order) == list(range(n))
    a = Sampler(range(500), seed=1, block_size=8)
    assert not np.array_equal(a.global_order(0), a.global_order(1))
    assert not np.array_equal(a.global_order(0), Sampler(range(500), seed=2,
                                                         block_size=8).global_order(0))
    assert not np.array_equal(a.global_order(0), Sampler(range(500), seed=1,
                                                         block_size=16).global_order(0))
    assert list(Sampler(range(5), shuffle=False)) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("drop_last", [False, True])
def test_rank_r_of_w_takes_positions_r_plus_k_w(drop_last):
    for n in SIZES:
        for w in (1, 2, 3, 4):
            samplers = [Sampler(range(n), seed=9, num_replicas=w, rank=r, block_size=4,
                                drop_last=drop_last) for r in range(w)]
            order = samplers[0].global_order().tolist()
            parts = [list(s) for s in samplers]
            count = n // w if drop_last else -(-n // w)
            for r, part in enumerate(parts):
                assert len(part) == len(samplers[r]) == count
                assert part == [order[p % n] for p in range(r, count * w, w)]
            flat = sorted(i for part in parts for i in part)
            if drop_last:
                assert flat == sorted(order[:count * w])
            else:
                repeats = count * w - n
                assert repeats <= w - 1
                # From the start of the global order (cyclically when N < W - 1).
                assert flat == sorted(order + [order[p % n] for p in range(repeats)])


def test_resume_yields_exactly_the_rest_of_the_epoch():
    n, w = 23, 2
    for rank in range(w):
        for k in range(0, 13):
            s = Sampler(range(n), seed=3, num_replicas=w, rank=rank, block_size=4)
            s.set_epoch(5)
            full = list(s)
            it = iter(s)
            head = [next(it) for _ in range(k)]
            state = s.state_dict()
            fresh = Sampler(range(n), seed=3, num_replicas=w, rank=rank, block_size=4)
            fresh.load_state_dict(state)
            fresh.set_epoch(5)  # the same epoch: the resumed position stays
            assert len(fresh) == len(full) - k
            assert head + list(fresh) == full
            assert list(fresh) == full  # a second iteration is a whole epoch again
            fresh.set_epoch(6)  # another epoch starts from its first position
            reference = Sampler(range(n), seed=3, num_replicas=w, rank=rank, block_size=4)
            reference.set_epoch(6)
            assert list(fresh) == list(reference) != full

def test_elastic_resume_with_another_number_of_ranks():
    n = 41
    for k in range(0, 11):
        before = [Sampler(range(n), seed=8, num_replicas=2, rank=r, block_size=4)
                  for r in range(2)]
        heads = []
        for s in before:
            it = iter(s)
            heads += [next(it) for _ in range(k)]
        state = before[1].state_dict()
        assert state == before[0].state_dict()  # every rank records the same global position
        after = [Sampler(range(n), seed=8, num_replicas=3, rank=r, block_size=4)
                 for r in range(3)]
        for s in after:
            s.load_state_dict(state)
        rests = [list(s) for s in after]
        assert len({len(r) for r in rests}) == 1
        seen = heads + [i for r in rests for i in r]
        order = before[0].global_order().tolist()
        repeats = len(seen) - n
        assert 0 <= repeats <= 2
        assert sorted(seen) == sorted(order + order[:repeats])


def test_resume_across_dataloader_workers():
    dataset = list(range(50))
    sampler = Sampler(dataset, seed=1, num_replicas=2, rank=1, block_size=4)
    full = list(sampler)
    loader = DataLoader(dataset, batch_size=4, sampler=sampler, num_workers=2,
                        multiprocessing_context=multiprocessing.get_context("fork"))
    it = iter(loader)
    got = torch.cat([next(it) for _ in range(3)]).tolist()
    assert sampler._yielded > 12  # the workers fetched ahead
    state = sampler.state_dict(consumed=len(got))
    del it
    fresh = Sampler(dataset, seed=1, num_replicas=2, rank=1, block_size=4)
    fresh.load_state_dict(state)
    rest = [i for batch in DataLoader(dataset, batch_size=4, sampler=fresh) for i in batch.tolist()]
    assert got + rest == full


def test_state_mismatch_and_bad_arguments():
    state = Sampler(range(10), seed=1).state_dict()
    for other in (Sampler(range(11), seed=1), Sampler(range(10), seed=2),
                  Sampler(range(10), seed=1, block_size=3), Sampler(range(10), seed=1,
                                                                    shuffle=False)):
        with pytest.raises(timef.ValidationError):
            other.load_state_dict(state)
    with pytest.raises(timef.ValidationError):
        Sampler(range(10), num_replicas=2, rank=2)
    with pytest.raises(timef.ValidationError):
        Sampler(range(10), seed=-1)
    with pytest.raises(timef.ValidationError):
        Sampler(range(10)).state_dict(consumed=11)


def test_shuffle_keeps_blocks_in_storage_order_within_windows():
    n, b, window = 4000, 64, 8
    order = Sampler(range(n), seed=0, block_size=b, window=window).global_order()
    last = {}
    for i in order.tolist():  # each block is read front to back
        assert last.get(i // b, -1) < i
        last[i // b] = i
    for at in range(0, n, b * window):  # a window of positions touches about `window` blocks
        assert len({i // b for i in order[at:at + b * window].tolist()}) <= window + 1
    neighbours = np.corrcoef(order[:-1], order[1:])[0, 1]
    assert abs(neighbours) < 0.2  # 0.07 for this seed; 1.0 for storage order


def test_bucketing_sorts_each_run_of_positions_by_length():
    n, bucket = 500, 64
    lengths = np.random.default_rng(3).integers(1, 50, n)
    plain = Sampler(range(n), seed=5, block_size=8, window=2)
    orders = {tuple(Sampler(range(n), seed=5, block_size=8, window=2, lengths=lengths,
                            bucket=bucket, num_replicas=w, rank=0).global_order(1))
              for w in (1, 2, 3)}
    assert len(orders) == 1  # still independent of the ranks
    order = np.array(orders.pop())
    shuffled = plain.global_order(1)
    for at in range(0, n, bucket):
        run, before = order[at:at + bucket], shuffled[at:at + bucket]
        assert sorted(run.tolist()) == sorted(before.tolist())  # the same items per run
        assert (np.diff(lengths[run]) >= 0).all()  # sorted by length
        # stable: equal lengths keep the shuffled order
        rank_in = {i: k for k, i in enumerate(before.tolist())}
        for a, b in zip(run[:-1].tolist(), run[1:].tolist()):
            if lengths[a] == lengths[b]:
                assert rank_in[a] < rank_in[b]
    # A rank's batches hold similar lengths: less padding than without buckets.
    ranks = [list(Sampler(range(n), seed=5, block_size=8, window=2, lengths=lengths,
                          bucket=bucket, num_replicas=2, rank=r)) for r in range(2)]
    assert sorted(ranks[0] + ranks[1]) == list(range(n))

    def padding(indices):
        return sum(int(lengths[indices[k:k + 8]].max() * len(indices[k:k + 8])
                       - lengths[indices[k:k + 8]].sum()) for k in range(0, len(indices), 8))
    assert padding(ranks[0]) * 3 < padding(list(Sampler(range(n), seed=5, block_size=8,
                                                        window=2, num_replicas=2, rank=0)))
    # Resumption and the state's checks cover the lengths.
    a = Sampler(range(n), seed=5, lengths=lengths, bucket=bucket, num_replicas=2, rank=1)
    it = iter(a)
    head = [next(it) for _ in range(30)]
    state = a.state_dict(consumed=30)
    b = Sampler(range(n), seed=5, lengths=lengths, bucket=bucket, num_replicas=2, rank=1)
    b.load_state_dict(state)
    assert head + list(b) == list(Sampler(range(n), seed=5, lengths=lengths, bucket=bucket,
                                          num_replicas=2, rank=1))
    for other in (Sampler(range(n), seed=5, lengths=lengths, bucket=32, num_replicas=2, rank=1),
                  Sampler(range(n), seed=5, lengths=lengths[::-1].copy(), bucket=bucket,
                          num_replicas=2, rank=1),
                  Sampler(range(n), seed=5, num_replicas=2, rank=1)):
        with pytest.raises(timef.ValidationError):
            other.load_state_dict(state)
    for bad in (dict(lengths=lengths[:-1]), dict(lengths=lengths.astype(float)),
                dict(lengths=-lengths), dict(lengths=lengths, bucket=0), dict(bucket=8)):
        with pytest.raises(timef.ValidationError):
            Sampler(range(n), **bad)
    assert list(Sampler([], lengths=[])) == []


def test_signal_dataset_lengths_for_buckets(hello):
    from timef.torch import SignalDataset
    dataset = SignalDataset(hello)
    lengths = dataset.lengths()
    assert lengths.dtype == np.int64 and len(lengths) == len(dataset)
    assert lengths.tolist() == [dataset[i]["values"].shape[0] for i in range(len(dataset))]
    sampler = Sampler(dataset, lengths=lengths, bucket=4)
    assert sorted(sampler) == list(range(len(dataset)))
