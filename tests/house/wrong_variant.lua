rule { name = "tile only", variants = {"tile"} }
