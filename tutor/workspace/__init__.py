"""workspace"""
