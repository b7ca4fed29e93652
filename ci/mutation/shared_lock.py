"""A lock held shared or exclusive."""

import threading


class SharedLock:
    """Held by many at once, or by one alone: the lanes of one GPU share it and the large stage
    takes it alone; the unit compiles of a build slot share it and a build in the slot takes it
    alone. One waiting to take it alone keeps new shared holders out, so that it is not starved."""

    def __init__(self):
        self._condition = threading.Condition()
        self._shared = 0
        self._exclusive = False
        self._waiting_exclusive = 0

    def acquire(self, exclusive):
        with self._condition:
            if exclusive:
                self._waiting_exclusive += 1
                self._condition.wait_for(lambda: not self._exclusive and self._shared == 0)
                self._waiting_exclusive -= 1
                self._exclusive = True
            else:
                self._condition.wait_for(lambda: not self._exclusive and self._waiting_exclusive == 0)
                self._shared += 1

    def release(self, exclusive):
        with self._condition:
            if exclusive:
                self._exclusive = False
            else:
                self._shared -= 1
            self._condition.notify_all()
