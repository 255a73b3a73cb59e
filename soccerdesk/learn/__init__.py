"""Learning to play: the match review, hints and guided first matches, as pure logic.

Nothing here imports Qt: the estimates run in the bot process (:mod:`soccerdesk.ui.bot_pool`)
and in tests; the widgets in ``soccerdesk.ui`` draw what these modules work out.

- :mod:`soccerdesk.learn.review`: each side's chance of winning along a finished match.
- :mod:`soccerdesk.learn.hint`: the search bot's suggestion for the seat to move, with a reason.
- :mod:`soccerdesk.learn.coach`: the scripts of the guided matches and the coach that follows them.
- :mod:`soccerdesk.learn.words`: how a line for a person is begun (sentence case), for these and the screens.
"""
