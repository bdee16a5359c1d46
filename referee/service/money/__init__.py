"""A table's money as the service keeps it: a settled hand's stored result
(``results``), the running totals written with each hand (``totals``), and
a player's payment details checked and made payable (``payable``). The
table writes them with its hands; it lies above money, as the club (settling
up, ``club.pay``) and trust do. A table's debts carried into a new one are
the new table's opening (``table.carrying``)."""
