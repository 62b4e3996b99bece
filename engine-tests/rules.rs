// rules tests: written next
