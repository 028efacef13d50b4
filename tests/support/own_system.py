"""One small game system a group writes itself, shared by the tests of definitions,
a group's own systems and the bot's /system: 2d6 plus a modifier, good on 8 or more."""

OUR_GAME = """
key = "mine"
version = 1
source = "our own table's roll"
example = "+1"
value = "total(roll) + mod"
name = { en = "Our game", ru = "Наша игра" }
about = { en = "2d6 plus a modifier.", ru = "2к6 плюс модификатор." }

[[inputs]]
key = "mod"
name = { en = "modifier", ru = "модификатор" }
default = 0
min = -2
max = 3

[dice.roll]
count = "2"
die = "d6"

[[outcomes]]
key = "good"
min = 8
label = { en = "Good", ru = "Хорошо" }

[[outcomes]]
key = "bad"
max = 7
label = { en = "Bad", ru = "Плохо" }
"""
