from kiosk.bucket import Bucket


def test_a_full_bucket_allows_capacity_failures_then_one_per_refill_period() -> None:
    bucket = Bucket.full(3, 1 / 60, now=0.0)
    for _ in range(3):
        assert not bucket.empty(0.0)
        bucket.take(0.0)
    assert bucket.empty(0.0)
    assert bucket.wait(0.0) == 60.0
    assert bucket.wait(45.0) == 15.0
    assert not bucket.empty(60.0) and bucket.wait(60.0) == 0.0
    bucket.take(60.0)
    assert bucket.empty(60.0)


def test_refill_never_exceeds_capacity() -> None:
    bucket = Bucket.full(2, 1.0, now=0.0)
    bucket.take(0.0)
    bucket.refill(1000.0)
    assert bucket.level == 2
