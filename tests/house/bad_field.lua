rule {
  name = "unknown field",
  vetoo = function() end,
}
