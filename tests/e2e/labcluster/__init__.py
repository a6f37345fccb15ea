"""The real LWS lab control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler,
kwok, lws-manager) built from Go modules and run on 127.0.0.1. See lab.py and docs/testing.md."""
