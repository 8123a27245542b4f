"""Prints an adj function @chain(%x: tensor<4xf32>) of N tanh ops in a row
(N = argv[1]): input of lit tests about long elementwise chains."""
import sys

n = int(sys.argv[1])
print("adj.func @chain(%v0: tensor<4xf32>) -> tensor<4xf32> {")
for i in range(n):
    print("  %%v%d = adj.tanh %%v%d : tensor<4xf32>" % (i + 1, i))
print("  adj.return %%v%d : tensor<4xf32>" % n)
print("}")
