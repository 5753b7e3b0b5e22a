-- Issue 20 point 4: a rule that counts plies in a global and, after 40,
-- forbids moves to the a file.  The count would outlive the game (the
-- next game of an experiment, an action taken back): the write is refused.
plies = 0
rule {
    name = "Counter",
    veto = function(game, action)
        if plies >= 40 and action.to and action.to:sub(1, 1) == "a" then
            return "no more moves to the a file"
        end
    end,
    react = function(game, action)
        plies = plies + 1
    end,
}
