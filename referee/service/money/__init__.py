"""A table's money as the service keeps it: a settled hand's stored result
(``results``), the running totals written with each hand (``totals``),
settling up with the players' payment details (``pay``, checked and made
payable in ``payable``) and a table's unpaid debts carried into a new one
(``carrying``)."""
