module example.com/deposit

go 1.19
