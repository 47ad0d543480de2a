"""Paper Tales: the 42 base-game Units (81 cards) and their strength in a War.

Facts from ``docs/rules/paper-tales-units.md`` (two digital adaptations agree on every
cost and strength; the Peddler has 3 copies so the deck counts 81). Ids are the English
names in kebab-case (``"time-master"``), the same ids a learned card deck uses.

Conditional strengths: the companion knows a Unit's age, so the Age-based ones are
computed (Giant Snake 0 once aged, Colossus 7 once aged, Leviathan cannot fight once
aged, Militiaman and Salamander +1 for their own Age token, Strategist +1 per Age token
in the realm). Food, Crystal and income bonuses depend on Buildings and cards the
companion does not see: it uses the printed strength, and a table that needs the bonus
types the Front strength as a number instead.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    """One Unit card: ``cost`` in Gold (the Monkey's is -1), printed ``strength``."""

    id: str
    name: str
    name_fr: str
    copies: int
    cost: int
    strength: int
    aged_strength: int | None = None  # strength once it carries an Age token
    from_back: bool = False  # fights from the Back (Archer, Strategist)
    note: str = ""


def _u(name: str, fr: str, copies: int, cost: int, strength: int, *,
       aged_strength: int | None = None, from_back: bool = False, note: str = "") -> Unit:
    return Unit(name.lower().replace(" ", "-"), name, fr, copies, cost, strength,
                aged_strength, from_back, note)


_ALL = (
    _u("Monkey", "Singe chapardeur", 2, -1, 1),
    _u("Adventurer", "Aventurière", 2, 0, 2),
    _u("Blacksmith", "Forgeronne", 3, 0, 1),
    _u("Cerberus", "Cerbère", 3, 0, 2, note="3 with Food"),
    _u("Cook", "Cuisinier", 2, 0, 1),
    _u("Farmer", "Fermier", 3, 0, 1),
    _u("Hunter", "Chasseur", 2, 0, 2),
    _u("Militiaman", "Milicienne", 3, 0, 2, aged_strength=3, note="+1 per own Age token"),
    _u("Mystical Healer", "Mystique", 3, 0, 1),
    _u("Sculptor", "Sculptrice", 2, 0, 1),
    _u("Shapeshifter", "Changeforme", 1, 0, 0),
    _u("Time Master", "Maîtresse du temps", 3, 0, 1),
    _u("Veteran", "Vétéran", 3, 0, 3),
    _u("Wood Merchant", "Négociante en bois", 2, 0, 1),
    _u("Woodcutter", "Bûcheron", 3, 0, 2),
    _u("Archer", "Archère", 2, 1, 2, from_back=True, note="fights from the Back"),
    _u("Cave Spirit", "Esprit des cavernes", 2, 1, 4),
    _u("Forest Child", "Enfant des forêts", 3, 1, 1),
    _u("Giant Snake", "Serpent géant", 1, 1, 4, aged_strength=0, note="0 once aged"),
    _u("Grand Architect", "Grand Architecte", 1, 1, 1),
    _u("Knight", "Chevalier", 3, 1, 4),
    _u("Miner", "Mineur", 3, 1, 2),
    _u("Necromancer", "Nécromancienne", 1, 1, 4),
    _u("Peddler", "Colporteur", 3, 1, 1, note="2 or 3 copies by edition"),
    _u("Rogue", "Pillarde", 2, 1, 3),
    _u("Treefolk", "Homme arbre", 2, 1, 3),
    _u("Colossus", "Colosse", 1, 2, 1, aged_strength=7, note="7 once aged"),
    _u("Commander", "Général", 2, 2, 4),
    _u("Demon", "Démon", 1, 2, 7),
    _u("Golem", "Golem", 2, 2, 3),
    _u("Landlord", "Notable", 1, 2, 1),
    _u("Manticore", "Manticore", 3, 2, 2, note="+2 per Food"),
    _u("Master Alchemist", "Maître Alchimiste", 1, 2, 1),
    _u("Ogre", "Ogre", 1, 2, 2, note="+1 per Gold of income"),
    _u("Palm Reader", "Chiromancienne", 2, 2, 1),
    _u("Relic of Wisdom", "Relique", 1, 2, 0),
    _u("Salamander", "Salamandre", 1, 2, 4, aged_strength=5, note="+1 per own Age token"),
    _u("Dragon", "Dragon", 1, 3, 0, note="7 with Crystal"),
    _u("Forest Spirit", "Esprit des forêts", 1, 3, 3),
    _u("Leviathan", "Léviathan", 1, 3, 4, aged_strength=0,
       note="+2 per Food; cannot fight once aged"),
    _u("Strategist", "Stratège", 1, 3, 1, from_back=True,
       note="fights from the Back; +1 per Age token in the realm"),
    _u("Kraken", "Kraken", 1, 6, 9),
)

#: Unit id -> Unit, in the order of the rules' table (by cost).
UNITS: dict[str, Unit] = {u.id: u for u in _ALL}


def unit_strength(unit: Unit, *, aged: bool, realm_age_tokens: int = 0) -> int:
    """Strength ``unit`` adds to its player's War, from what the companion knows.

    ``realm_age_tokens`` counts the Age tokens on all the player's Units in play (only
    the Strategist uses it).
    """
    if unit.id == "strategist":
        return unit.strength + realm_age_tokens
    if aged and unit.aged_strength is not None:
        return unit.aged_strength
    return unit.strength
