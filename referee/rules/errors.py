"""The referee's small error hierarchy.

Every refusal carries a stable ``code`` (for programs), the hand and the
action it concerns (both counted from 1, ``None`` where they do not apply),
and a sentence a player can read: an English ``template`` with named
``params`` (``referee.rules.words``), which the shells put into the reader's
language (``referee.language.message``). ``message`` is the English
sentence, the words of the result format and of stored answers;
``message_words`` states it once for every language.
"""

from __future__ import annotations

from .words import N_, LoggedAction, Phrases, Words, english


class RefereeError(Exception):
    """Base class: something the referee will not accept."""

    #: Exit status of ``referee replay`` for this kind of error.
    exit_status = 1

    def __init__(
        self,
        code: str,
        template: str,
        params: dict | None = None,
        *,
        hand: int | None = None,
        action: int | None = None,
        action_text: str | None = None,
    ) -> None:
        self.code = code
        self.template = template
        self.params = params or {}
        self.sentence = english(template, self.params)
        super().__init__(self.sentence)
        self.hand = hand
        self.action = action
        self.action_text = action_text

    def __reduce__(self):
        # An error can cross to another process (the two-core replay) intact.
        return (_rebuild, (type(self), self.code, self.template, self.params, self.hand,
                           self.action, self.action_text))

    def at(
        self, *, hand: int | None = None, action: int | None = None,
        action_text: str | None = None,
    ) -> RefereeError:
        """Fill in where the error happened, keeping what is already known."""
        if self.hand is None:
            self.hand = hand
        if self.action is None:
            self.action = action
        if self.action_text is None:
            self.action_text = action_text
        return self

    @property
    def where_hand(self) -> int | None:
        """The hand the message's place names: none where its sentence names
        that hand already ("hand 1 has no dispute 2", not "hand 1: hand 1
        has ...")."""
        if self.hand is not None and any(
                value == self.hand and f"hand {{{name}}}" in self.template
                for name, value in self.params.items()):
            return None
        return self.hand

    @property
    def message_words(self) -> Phrases:
        """The message as words, the one statement of where a refusal happened
        and why: "hand 3, action 5 (Ben: discard 9c): " then the sentence.
        ``str()`` of it is ``message``; every other reader (the pages, the
        API, verify, the command line) says it in its language
        (``referee.language.message``). The place leaves out what is not
        known, and the hand where the sentence names it (``where_hand``)."""
        place: list[object] = []
        if self.where_hand is not None:
            place.append(Words(N_("hand {hand}"), hand=self.where_hand))
        if self.action is not None:
            place += [", "] * bool(place) + [Words(N_("action {action}"), action=self.action)]
        if self.action_text:
            place += [" "] * bool(place) + ["(", LoggedAction(self.action_text), ")"]
        sentence = Words(self.template, **self.params)
        if not place:
            return Phrases([sentence])
        # The colon is the language's: French sets it apart ("main 3 : ...").
        return Phrases([Words(N_("{place}: {sentence}"), place=Phrases(place),
                              sentence=sentence)])

    @property
    def message(self) -> str:
        return str(self.message_words)

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict:
        return {
            "hand": self.hand,
            "action": self.action,
            "code": self.code,
            "message": self.message,
        }


def _rebuild(cls, code, template, params, hand, action, action_text):
    return cls(code, template, params, hand=hand, action=action, action_text=action_text)


class RuleViolation(RefereeError):
    """An action or a hand's setup that the house rules do not allow."""


class IllegalAction(RuleViolation):
    """An action refused by the hand's state machine."""


class MalformedInput(RefereeError):
    """Input that cannot be read at all: bad JSON, a missing field, an action
    or card that is not written in the log format."""

    exit_status = 2


class RulesError(MalformedInput):
    """An unknown preset or option, or an option value out of range."""


class NoSuchHand(MalformedInput):
    """A hand asked for (``--hand 9``, a page's hand) that the log does not
    have: the question is wrong, not the log (``no_such_hand``)."""
