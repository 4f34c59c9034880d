"""Any rulebook as a reinforcement-learning environment.

``rulelang.envs.pettingzoo`` (extra ``rulelang[pettingzoo]``) gives a PettingZoo AEC
environment, ``rulelang.envs.openspiel`` (extra ``rulelang[openspiel]``) an OpenSpiel
game. Both are thin layers over the public engine API; what they share (the action
bound, the observation tensor, the payoffs) lives in ``common`` and ``encoding``.
"""
