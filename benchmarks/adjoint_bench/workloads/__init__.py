"""The workloads, by name."""

from .gemm import GEMM
from .mlp import MLP
from .convnet import ConvNet
from .bert import BERT
from .llama import Llama
from .lstm import LSTM
from .dlrm import DLRM
from .ppo import PPO
from .gnn import GNN

WORKLOADS = {w.name: w for w in (GEMM(), MLP(), LSTM(), DLRM(), PPO(), GNN(), ConvNet(), BERT(), Llama())}
