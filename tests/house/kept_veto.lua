-- game:set in a veto is refused (issue 20 point 4): a veto is asked as
-- often as anyone asks.
rule {
  name = "Kept in a veto",
  veto = function(game, action) game:set("asked", 1) end,
}
