from enum import StrEnum


class ClustersListFlavour(StrEnum):
    KUBERNETES = "kubernetes"
    OPENSHIFT = "openshift"

    def __str__(self) -> str:
        return str(self.value)
