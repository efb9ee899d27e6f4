"""Password hashers for tests of how signatures are checked (not for use
outside tests): one that proves two checks run side by side, and one as slow
as a real hash on a busy server."""

import threading
import time

from django.contrib.auth.hashers import MD5PasswordHasher


class SideBySideHasher(MD5PasswordHasher):
    """Each check waits for a second check to start before it answers: two
    checks made one after the other break the barrier and fail."""

    algorithm = "side_by_side_md5"
    barrier = threading.Barrier(2, timeout=10)
    threads: list[str] = []

    def verify(self, password, encoded):
        self.threads.append(threading.current_thread().name)
        self.barrier.wait()
        return super().verify(password, encoded)


class SlowHasher(MD5PasswordHasher):
    """A check that takes as long as a full-cost hash on a slow server."""

    algorithm = "slow_md5"
    seconds = 3

    def verify(self, password, encoded):
        time.sleep(self.seconds)
        return super().verify(password, encoded)
