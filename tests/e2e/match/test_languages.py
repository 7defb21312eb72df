"""Languages, end to end through the Discord double: a member whose Discord is in Russian plays
a street and reads Russian in their DM (while the server's table stays in its language), and
a server whose language is Simplified Chinese gets its lobby, table message and table image
in Chinese, until an admin picks another language with `/ofc-admin settings`."""

from pathlib import Path

from bot.app import OFCBot
from bot.engine.cards import Card
from bot.tables import FakeClock
from tests.cogs.conftest import buttons, enabled
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.discord_double.model import MANAGE_GUILD
from tests.e2e.flows import (
    PATIENCE,
    Seat,
    act,
    dealt,
    description,
    placement,
    ready,
    start_bot,
    title,
)
from tests.e2e.privacy import PrivacyWatch

SUCCESS = 3  # a green button: the card drafted there


def lobby_of(double: DiscordDouble, word: str) -> Message | None:
    return next((m for m in double.messages() if title(m).startswith(word)), None)


async def test_a_russian_member_reads_russian_in_their_dm(
        double: DiscordDouble, alice: Member, clock: FakeClock, tmp_path: Path,
        watch: PrivacyWatch) -> None:
    ivan = double.add_member("ivan", locale="ru")
    bot: OFCBot = await start_bot(double, tmp_path / "ofc.sqlite3", clock)
    try:
        await double.resolved(await alice.slash("ofc create", seats=2))
        lobby = await double.wait_until(lambda: lobby_of(double, "OFC table"),
                                        timeout=PATIENCE, what="the English lobby")
        joined = await double.resolved(await ivan.slash("ofc join"))  # his language: ru
        assert "Вы сели с 200 фишек из кошелька." in joined.content
        await double.wait_until(lambda: enabled(lobby, "Start"), timeout=PATIENCE,
                                what="Start enabled")
        await alice.click(lobby, "Start")
        table = await double.wait_for_message(lambda m: "My hand" in m.labels(),
                                              timeout=PATIENCE)
        assert title(table).startswith("Hand 1 of 2")  # the server's language: English

        def russian_turn() -> Message | None:
            prompts = [m for m in ivan.dms() if not m.ephemeral]
            if prompts and "**Ваш ход.**" in description(prompts[-1]) \
                    and "Готово" in buttons(prompts[-1]):
                return prompts[-1]
            alice_prompt = Seat(alice).prompt()
            if ready(alice_prompt) and alice_prompt is not None \
                    and alice_prompt.id not in acted:
                acted.add(alice_prompt.id)
                return alice_prompt
            return None

        acted: set[int] = set()
        while (prompt := await double.wait_until(russian_turn, timeout=PATIENCE,
                                                 what="ivan's turn")) in alice.dms():
            await act(double, alice, prompt)  # alice plays first when she is left of the button
        assert title(prompt) == "Раздача 1 из 2 · улица 1 из 5"
        assert "**Ваш ход.** ⏱" in description(prompt)
        assert (await bot.storage.preferences.preferences(ivan.id)).locale == "ru"
        (image,) = [a for a in prompt.attachments if a.content_type.startswith("image/")]
        assert watch.rendered_from(image).locale == "ru"  # its words drawn in Russian

        cards: list[Card] = dealt(prompt)
        assert len(cards) == 5
        for card, row in zip(cards, ("bottom", "bottom", "middle", "middle", "top"),
                             strict=True):
            button = placement(prompt, card, row)
            assert button["label"] == {"bottom": "Низ", "middle": "Середина", "top": "Верх"}[row]
            await ivan.click(prompt, custom_id=str(button["custom_id"]))
            await double.wait_until(
                lambda c=card, r=row: placement(prompt, c, r).get("style") == SUCCESS,
                timeout=PATIENCE, what=f"{card} drafted to {row}")
        assert "Низ:" in description(prompt) and "Верх:" in description(prompt)
        await double.wait_until(lambda: enabled(prompt, "Готово"), timeout=PATIENCE,
                                what="Confirm enabled")
        await ivan.click(prompt, "Готово")
        if "Всё равно подтвердить" in buttons(prompt):  # the draft fouls: asked again
            await ivan.click(prompt, "Всё равно подтвердить")
        await double.wait_until(lambda: title(prompt) == "Раздача 1: улица 1 выложена",
                                timeout=PATIENCE, what="the street's Russian record")
        assert "Низ: " in description(prompt) and "Середина: " in description(prompt)
        assert title(table).startswith("Hand 1 of 2")  # the table stays in English
    finally:
        await double.stop_client(bot)


async def test_a_chinese_server_gets_its_table_in_chinese(
        double: DiscordDouble, alice: Member, bob: Member, clock: FakeClock, tmp_path: Path,
        watch: PrivacyWatch) -> None:
    double.guild.preferred_locale = "zh-CN"  # the server's language (Community settings)
    admin = double.add_member("croupier", roles=(double.add_role("Croupier", MANAGE_GUILD),))
    bot: OFCBot = await start_bot(double, tmp_path / "ofc.sqlite3", clock)
    try:
        created = await double.resolved(await alice.slash("ofc create", seats=2))
        assert "Your table is open" in created.content  # alice's own answer: her language
        lobby = await double.wait_until(lambda: lobby_of(double, "OFC 牌桌"), timeout=PATIENCE,
                                        what="the lobby in Chinese")
        assert title(lobby) == "OFC 牌桌：等待玩家" and "加入" in lobby.labels()
        await bob.click(lobby, "加入")
        await double.wait_until(lambda: enabled(lobby, "开始"), timeout=PATIENCE,
                                what="开始 (Start) enabled")
        await alice.click(lobby, "开始")
        table = await double.wait_for_message(lambda m: "我的手牌" in m.labels(),
                                              timeout=PATIENCE)
        assert title(table) == "第 1/2 手：第 1/5 轮"
        assert table.embed is not None
        assert table.embed["footer"]["text"] == "你的牌通过私信发送。私信关闭？点“我的手牌”。"
        assert [f["name"] for f in table.embed["fields"]] == ["码量"]
        (image,) = [a for a in table.attachments if a.content_type.startswith("image/")]
        assert watch.rendered_from(image).locale == "zh-CN"  # the table image in Chinese
        # The prompt of whoever acts first (the button is drawn at random): the other's
        # prompt waits, its Confirm disabled until then.
        prompt = await double.wait_until(
            lambda: next((p for p in (Seat(alice).prompt(), Seat(bob).prompt()) if ready(p)),
                         None), timeout=PATIENCE, what="the first player's DM prompt")
        assert title(prompt).startswith("Hand 1 of 2")  # a DM: its reader's language

        # An admin chooses Russian for this server: the table message follows.
        await double.resolved(await admin.slash("ofc-admin settings", language="ru"))
        player = alice if prompt in alice.dms() else bob
        await act(double, player, prompt)
        await double.wait_until(lambda: title(table).startswith("Раздача 1 из 2"),
                                timeout=PATIENCE, what="the table message in Russian")
    finally:
        await double.stop_client(bot)
