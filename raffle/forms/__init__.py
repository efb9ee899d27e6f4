"""Forms by page area: `drawnight` (the draw's steps), `rules` (Rules of Play,
exit strategy), `sales`, `supplier` (imports from the registered supplier),
`treasury`, `audit` (the integrity registers). They only parse input; the services decide. Re-exported here so
`from raffle.forms import X` keeps working."""

from raffle.forms.audit import RegistrarNotificationForm, VideoForm
from raffle.forms.drawnight import (
    ClaimForm,
    CloseSalesForm,
    ConfirmForm,
    DestructionForm,
    EnvelopeForm,
    ImportedCloseSalesForm,
    MustGoRedrawForm,
    PaperCloseSalesForm,
    PaperMustGoRedrawForm,
    PaperWinningTicketForm,
    RevealCardForm,
    RngMustGoRedrawForm,
    RngWinningTicketForm,
    SerialTypedTwiceForm,
    WinningTicketForm,
)
from raffle.forms.members import MembersInChargeForm
from raffle.forms.rules import MustGoForm, RulesApprovalForm, RulesSettingsForm
from raffle.forms.sales import IssueRollForm, ReturnRollForm, SaleForm, VoidForm
from raffle.forms.schedule import PostponementForm
from raffle.forms.supplier import SupplierImportForm, SupplierWinningTicketForm
from raffle.forms.treasury import (
    ApprovedUseForm,
    ContactAttemptForm,
    CoverageForm,
    DepositForm,
    DonatedPrizeForm,
    ExpenseForm,
    PrizePaymentForm,
    SigningOfficersForm,
    TrustAccountForm,
    UnclaimedForm,
)

__all__ = [
    "SupplierImportForm",
    "SupplierWinningTicketForm",
    "ApprovedUseForm",
    "ClaimForm",
    "CloseSalesForm",
    "ConfirmForm",
    "ContactAttemptForm",
    "CoverageForm",
    "DepositForm",
    "DestructionForm",
    "DonatedPrizeForm",
    "EnvelopeForm",
    "ExpenseForm",
    "ImportedCloseSalesForm",
    "IssueRollForm",
    "MembersInChargeForm",
    "MustGoForm",
    "RulesApprovalForm",
    "MustGoRedrawForm",
    "PaperCloseSalesForm",
    "PaperMustGoRedrawForm",
    "PaperWinningTicketForm",
    "PostponementForm",
    "PrizePaymentForm",
    "RegistrarNotificationForm",
    "ReturnRollForm",
    "RevealCardForm",
    "RngMustGoRedrawForm",
    "RngWinningTicketForm",
    "RulesSettingsForm",
    "SaleForm",
    "SerialTypedTwiceForm",
    "SigningOfficersForm",
    "TrustAccountForm",
    "UnclaimedForm",
    "VideoForm",
    "VoidForm",
    "WinningTicketForm",
]
