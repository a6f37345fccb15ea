"""The time type: a time known to the second may be a second off either way; a precise one not."""

from tutor.cluster.instant import SLACK, Instant
from tutor.cluster.objects import parse_time


def test_a_precise_time_compares_as_it_is():
    t = Instant(100.4)
    assert (t.earliest, t.latest) == (100.4, 100.4)
    assert t.surely_after(100.3) and not t.surely_after(100.4) and t.maybe_after(100.4)
    assert t.surely_before(100.5) and not t.maybe_before(100.3)
    assert t.within(100.0, 101.0) and not t.within(100.5, None)


def test_a_time_known_to_the_second_allows_the_second_either_way():
    t = Instant(*parse_time("2026-11-30T06:58:42Z"))
    assert not t.precise and t.slack == SLACK
    assert t.maybe_after(t.at + 0.9) and t.maybe_before(t.at - 0.9)  # its cause at .4 may come after it
    assert not t.surely_after(t.at - 0.5) and t.surely_after(t.at - 1.5)
    assert t.within(t.at + 0.5, t.at + 2) and not t.within(t.at + 1.5, None)


def test_two_times_in_order_allow_one_second_when_either_is_rough():
    from tutor.cluster.instant import maybe_in_order

    precise, later = Instant(100.0), Instant(100.5)
    assert maybe_in_order(precise, later) and not maybe_in_order(later, precise)
    rough = Instant(100.5, False)  # 100.5 on a whole-second clock: any moment of a second around it
    assert maybe_in_order(rough, precise) and maybe_in_order(precise, rough)
    assert not maybe_in_order(Instant(101.6, False), precise)
    # both rough: still one second, not two (each is within its own second of the truth)
    assert maybe_in_order(Instant(101.0, False), Instant(100.0, False))
    assert not maybe_in_order(Instant(101.5, False), Instant(100.0, False))
