"""The relay that hands DM clicks between the bot's processes (bot/cluster/relay.py): only payloads
signed with the bot's token are taken; a process that does not run the table says so."""

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from bot.cluster.relay import PATH, SIGNATURE, Relay, RelayError, relay_key

PAYLOAD = {"id": "1", "type": 3, "data": {"custom_id": "ofc:hand:7"}}


async def test_signed_payloads_are_delivered_and_forged_ones_refused() -> None:
    taken: list[dict[str, Any]] = []

    async def deliver(payload: dict[str, Any]) -> bool:
        taken.append(payload)
        return payload["id"] != "mine-no-more"

    receiver, sender, stranger = Relay(relay_key("token")), Relay(relay_key("token")), \
        Relay(relay_key("another token"))
    receiver.deliver = deliver
    address = await receiver.start("127.0.0.1:0")
    try:
        await sender.forward(address, PAYLOAD)
        assert taken == [PAYLOAD] and receiver.received == sender.forwarded == 1
        with pytest.raises(RelayError, match="answered 403"):
            await stranger.forward(address, PAYLOAD)
        async with aiohttp.ClientSession() as session, session.post(  # a made-up signature
                f"http://{address}{PATH}", data=json.dumps(PAYLOAD),
                headers={SIGNATURE: "0" * 64}) as response:
            assert response.status == 403
        assert taken == [PAYLOAD]
        with pytest.raises(RelayError, match="answered 409"):
            await sender.forward(address, {**PAYLOAD, "id": "mine-no-more"})
        assert receiver.received == 1
    finally:
        for relay in (receiver, sender, stranger):
            await relay.close()
    lonely = Relay(relay_key("token"))
    try:
        with pytest.raises(RelayError, match="unreachable"):  # nobody listens there now
            await lonely.forward(address, PAYLOAD)
    finally:
        await lonely.close()


async def test_a_click_sent_again_while_the_first_is_being_handled_is_handled_once() -> None:
    """The receiving process was slow to answer (its event loop busy): the sender stopped
    waiting and sent the click again, a new message signed afresh. The click is handled once,
    and the second message is answered as taken, as the first was."""
    release, taken = asyncio.Event(), []

    async def slow(payload: dict[str, Any]) -> bool:
        taken.append(payload)
        await release.wait()
        return True

    receiver, sender = Relay(relay_key("token")), Relay(relay_key("token"))
    receiver.deliver = slow
    address = await receiver.start("127.0.0.1:0")
    try:
        first = asyncio.create_task(sender.forward(address, PAYLOAD))
        while not taken:
            await asyncio.sleep(0.01)
        await sender.forward(address, PAYLOAD)  # the sender's second try
        release.set()
        await first
        assert taken == [PAYLOAD] and sender.forwarded == 2
        await sender.forward(address, {**PAYLOAD, "id": "2"})  # another click is another
        assert [p["id"] for p in taken] == ["1", "2"]
    finally:
        for relay in (receiver, sender):
            await relay.close()


async def test_a_click_whose_delivery_failed_is_delivered_when_sent_again() -> None:
    """The receiving process failed while taking the click (its database away a moment): the
    sender is told, and the copy it sends is delivered, not taken for one already handled."""
    tries: list[dict[str, Any]] = []

    async def failing_once(payload: dict[str, Any]) -> bool:
        tries.append(payload)
        if len(tries) == 1:
            raise RuntimeError("the database is away")
        return True

    receiver, sender = Relay(relay_key("token")), Relay(relay_key("token"))
    receiver.deliver = failing_once
    address = await receiver.start("127.0.0.1:0")
    try:
        with pytest.raises(RelayError, match="answered 500"):
            await sender.forward(address, PAYLOAD)
        await sender.forward(address, PAYLOAD)
        assert tries == [PAYLOAD, PAYLOAD] and receiver.received == 1
    finally:
        for relay in (receiver, sender):
            await relay.close()



async def test_a_click_promised_to_a_copy_and_then_not_taken_is_answered_by_the_receiver() -> None:
    """The receiving process was slow to look the click's table up (its database slow), and
    the copy the sender sent meanwhile was answered as taken, so the sender stopped there.
    Then the receiver found the table no longer its own (its lease ran out meanwhile): it
    answers the click with the refusal the sender would have given, rather than nobody."""
    release, tries, refused = asyncio.Event(), [], []

    async def slow_then_not_mine(payload: dict[str, Any]) -> bool:
        tries.append(payload)
        await release.wait()
        return False

    async def refuse(payload: dict[str, Any]) -> None:
        refused.append(payload)

    receiver, sender = Relay(relay_key("token")), Relay(relay_key("token"))
    receiver.deliver, receiver.refuse = slow_then_not_mine, refuse
    address = await receiver.start("127.0.0.1:0")
    try:
        first = asyncio.create_task(sender.forward(address, PAYLOAD))
        while not tries:
            await asyncio.sleep(0.01)
        await sender.forward(address, PAYLOAD)  # the sender's second try: answered as taken
        assert refused == []
        release.set()
        with pytest.raises(RelayError, match="answered 409"):
            await first
        assert tries == [PAYLOAD] and refused == [PAYLOAD] and receiver.received == 0
        with pytest.raises(RelayError, match="answered 409"):  # nothing promised: the sender
            await sender.forward(address, {**PAYLOAD, "id": "2"})  # refuses it, not the receiver
        assert len(tries) == 2 and refused == [PAYLOAD]
    finally:
        for relay in (receiver, sender):
            await relay.close()
