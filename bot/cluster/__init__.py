"""What runs across the bot's processes when it is sharded: the relay of DM clicks between
processes (relay.py), the lease on this process's shards (shard_lease.py), the health and
Prometheus endpoint (metrics.py), and warnings anyone on the network can cause, throttled
(throttled_log.py).

The shard plan itself (bot/sharding.py) is a plain value read by storage and the table service,
so it stays below them, outside this package."""
