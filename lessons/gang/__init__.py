"""The gang lesson: native gang scheduling (Kubernetes 1.37 PodGroup) for an LWS group."""
