from tests.multihost.cluster import postgres

__all__ = ["postgres"]
