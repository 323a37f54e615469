// filled in by the change that adds it
